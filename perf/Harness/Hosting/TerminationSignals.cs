using System.Runtime.InteropServices;

namespace Surrogate.Perf.Harness.Hosting;

/// <summary>
/// Runs an action when the driver is told to stop (SIGINT, SIGTERM, SIGHUP), before the runtime's default handling
/// ends the process: finally blocks do not run then, so what must not outlive the driver registers here.
/// </summary>
public sealed class TerminationSignals : IDisposable
{
    private readonly PosixSignalRegistration[] registrations;

    private TerminationSignals(Action onSignal) =>
        registrations = [.. new[] { PosixSignal.SIGINT, PosixSignal.SIGTERM, PosixSignal.SIGHUP }
            .Select(signal => PosixSignalRegistration.Create(signal, _ => onSignal()))];

    public static TerminationSignals Register(Action onSignal) => new(onSignal);

    public void Dispose()
    {
        foreach (PosixSignalRegistration registration in registrations)
        {
            registration.Dispose();
        }
    }
}
