using CoreWCF.Description;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Surrogate.ServiceModel;

namespace Surrogate.CoreWCF;

/// <summary>
/// Makes <see cref="DataSetSurrogateAttribute"/> on a shared contract take effect on CoreWCF services. CoreWCF applies
/// only its own behavior interfaces, so the attribute alone does nothing there; this registers one CoreWCF service
/// behavior that reads the attribute from each endpoint's contract interface and operation methods and installs the
/// same provider, negotiation and telemetry as on System.ServiceModel.
/// </summary>
/// <example>
/// <code>
/// builder.Services.AddServiceModelServices();
/// builder.Services.AddDataSetSurrogate();
/// </code>
/// </example>
public static class DataSetSurrogateServiceCollectionExtensions
{
    /// <summary>
    /// Registers the service behavior that applies <see cref="DataSetSurrogateAttribute"/> to every CoreWCF service of
    /// this host (CoreWCF applies service behaviors registered for dependency injection to every service). Calling it
    /// again with the same options changes nothing.
    /// </summary>
    /// <param name="services">The host's services.</param>
    /// <param name="options">
    /// Codec limits for every operation with the attribute on this host (an attribute cannot carry them);
    /// <see cref="SurrogateOptions.Default"/> when null.
    /// </param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="InvalidOperationException">It was called before with other options.</exception>
    public static IServiceCollection AddDataSetSurrogate(this IServiceCollection services, SurrogateOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        SurrogateOptions effective = options ?? SurrogateOptions.Default;
        SurrogateServiceBehavior? registered = services
            .Where(d => d.ServiceType == typeof(IServiceBehavior))
            .Select(d => d.ImplementationInstance)
            .OfType<SurrogateServiceBehavior>()
            .FirstOrDefault();
        if (registered is not null)
        {
            return registered.Options == effective
                ? services
                : throw new InvalidOperationException("AddDataSetSurrogate was already called with other options; call it once per host.");
        }

        services.TryAddEnumerable(ServiceDescriptor.Singleton<IServiceBehavior>(new SurrogateServiceBehavior(effective)));
        return services;
    }
}
