namespace Surrogate.Tests;

/// <summary>Records the assemblies an action loads on its own thread.</summary>
internal static class AssemblyLoads
{
    /// <summary>
    /// Runs <paramref name="action"/> and returns the assemblies loaded meanwhile by this thread: other tests load
    /// assemblies in parallel, and the load event is raised on the thread that caused the load.
    /// </summary>
    public static List<string> OnThisThread(Action action)
    {
        var thread = Environment.CurrentManagedThreadId;
        var loads = new List<string>();
        void OnLoad(object? sender, AssemblyLoadEventArgs e)
        {
            if (Environment.CurrentManagedThreadId == thread)
            {
                lock (loads)
                {
                    loads.Add(e.LoadedAssembly.FullName ?? "?");
                }
            }
        }

        AppDomain.CurrentDomain.AssemblyLoad += OnLoad;
        try
        {
            action();
        }
        finally
        {
            AppDomain.CurrentDomain.AssemblyLoad -= OnLoad;
        }

        return loads;
    }
}
