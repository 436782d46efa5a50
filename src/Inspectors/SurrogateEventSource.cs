using System.Diagnostics;
using System.Diagnostics.Tracing;

namespace Surrogate.ServiceModel;

/// <summary>
/// Warnings of this library as events of the EventSource <c>DataSetSurrogate</c> (the name of the meter and activity
/// source too, <see cref="SurrogateTelemetry.Name"/>): <c>dotnet-trace</c>, <c>dotnet-monitor</c>, PerfView or an
/// <see cref="EventListener"/> see them. Each is also added as an event to the current <see cref="Activity"/>, if any.
/// </summary>
[EventSource(Name = SurrogateTelemetry.Name)]
internal sealed class SurrogateEventSource : EventSource
{
    /// <summary>Event id of <see cref="SmallConnectionBufferOnLoopback"/>.</summary>
    public const int SmallConnectionBufferOnLoopbackId = 1;

    /// <summary>The name of the activity event that goes with <see cref="SmallConnectionBufferOnLoopback"/>.</summary>
    public const string SmallConnectionBufferActivityEvent = "datasetsurrogate.small_connection_buffer";

    public static readonly SurrogateEventSource Log = new();

    private SurrogateEventSource()
    {
    }

    /// <summary>
    /// A net.tcp client endpoint to a loopback address keeps connection buffers of <paramref name="connectionBufferSize"/>
    /// bytes: large messages will advance on delayed-ACK timers. The cure is
    /// <see cref="SurrogateBindings.WithConnectionBufferSize"/>.
    /// </summary>
    [Event(SmallConnectionBufferOnLoopbackId, Level = EventLevel.Warning,
        Message = "The net.tcp client endpoint {0} is on a loopback address with {1}-byte connection buffers: large messages stall on delayed-ACK timers (about 200 ms at a time). Use SurrogateBindings.WithConnectionBufferSize on the client binding (64 KB).")]
    public void SmallConnectionBufferOnLoopback(string address, int connectionBufferSize)
    {
        Activity.Current?.AddEvent(new ActivityEvent(SmallConnectionBufferActivityEvent, tags: new ActivityTagsCollection
        {
            ["address"] = address,
            ["connection_buffer_size"] = connectionBufferSize,
        }));
        if (IsEnabled())
        {
            WriteEvent(SmallConnectionBufferOnLoopbackId, address, connectionBufferSize);
        }
    }
}
