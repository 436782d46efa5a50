using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.ServiceModel;
using System.ServiceModel.Channels;
using Xunit;

namespace Surrogate.ServiceModel.Tests;

/// <summary>
/// The cure for the net.tcp loopback stall (SurrogateBindings) and the warning for a client that keeps the 8 KB
/// default. Opening a factory applies the behaviors and connects nowhere, so no server and no timing are involved.
/// </summary>
public sealed class LoopbackBufferTests
{
    [Fact]
    public void The_helper_gives_64_KB_connection_buffers_and_keeps_the_rest_of_the_binding()
    {
        var tcp = new NetTcpBinding(SecurityMode.None) { MaxReceivedMessageSize = 1 << 20, SendTimeout = TimeSpan.FromSeconds(7), TransferMode = TransferMode.Streamed };
        CustomBinding cured = SurrogateBindings.WithConnectionBufferSize(tcp);
        var transport = cured.Elements.Find<TcpTransportBindingElement>()!;
        Assert.Equal(64 * 1024, transport.ConnectionBufferSize);
        Assert.Equal(1 << 20, transport.MaxReceivedMessageSize);
        Assert.Equal(TransferMode.Streamed, transport.TransferMode);
        Assert.Equal(TimeSpan.FromSeconds(7), cured.SendTimeout);
        Assert.Equal(8 * 1024, tcp.CreateBindingElements().Find<TcpTransportBindingElement>()!.ConnectionBufferSize); // the input is unchanged
    }

    /// <summary>
    /// The converted binding differs from the input in the connection buffer size only: every public property of every
    /// element, nested settings (reader quotas, pool settings) included, compares equal. Backs docs/wcf.md's finding that
    /// the cure's slower small calls in the harness were warm-up, not a setting lost in the conversion.
    /// </summary>
    [Fact]
    public void The_helper_changes_nothing_but_the_connection_buffer_size()
    {
        var tcp = new NetTcpBinding(SecurityMode.None) { MaxReceivedMessageSize = int.MaxValue, MaxBufferSize = int.MaxValue, OpenTimeout = TimeSpan.FromMinutes(2) };
        BindingElementCollection expected = tcp.CreateBindingElements();
        expected.Find<TcpTransportBindingElement>()!.ConnectionBufferSize = SurrogateBindings.RecommendedConnectionBufferSize;
        CustomBinding cured = SurrogateBindings.WithConnectionBufferSize(tcp);

        Assert.Equal(expected.Select(e => e.GetType()), cured.Elements.Select(e => e.GetType()));
        for (int i = 0; i < expected.Count; i++)
        {
            AssertSameProperties(expected[i], cured.Elements[i], expected[i].GetType().Name);
        }

        Assert.Equal((tcp.OpenTimeout, tcp.CloseTimeout, tcp.SendTimeout, tcp.ReceiveTimeout), (cured.OpenTimeout, cured.CloseTimeout, cured.SendTimeout, cured.ReceiveTimeout));
        Assert.Equal((tcp.Name, tcp.Namespace, tcp.Scheme), (cured.Name, cured.Namespace, cured.Scheme));
    }

    [Theory]
    [InlineData("net.tcp://127.0.0.1:9/shop", true)]
    [InlineData("net.tcp://localhost:9/shop", true)]
    [InlineData("net.tcp://[::1]:9/shop", true)]
    [InlineData("net.tcp://192.0.2.10:9/shop", false)]
    public void A_default_net_tcp_client_to_a_loopback_address_is_warned_about(string address, bool warned)
    {
        using var events = new WarningListener();
        Open<IShop>(new NetTcpBinding(SecurityMode.None), address);
        Assert.Equal(warned, events.Warnings.Any(w => w.Contains(address, StringComparison.Ordinal)));
    }

    [Theory]
    [InlineData(typeof(IShop), 1)]
    [InlineData(typeof(IPlacementOnContract), 1)]
    [InlineData(typeof(IPlacementOnOperation), 1)]
    [InlineData(typeof(IShopOneOperation), 1)]
    [InlineData(typeof(IOnContractAndOperation), 1)]
    [InlineData(typeof(IPlacementAbsent), 0)]
    public void The_warning_comes_once_per_endpoint_wherever_the_attribute_sits(Type contract, int expected)
    {
        using var events = new WarningListener();
        string address = $"net.tcp://127.0.0.1:9/{contract.Name}/";
        for (int endpoint = 1; endpoint <= 2; endpoint++)
        {
            Open(contract, new NetTcpBinding(SecurityMode.None), address);
            Assert.Equal(expected * endpoint, events.Warnings.Count(w => w.Contains(address, StringComparison.Ordinal)));
        }
    }

    [Fact]
    public void A_client_with_the_cure_is_not_warned_about()
    {
        using var events = new WarningListener();
        Open<IShop>(SurrogateBindings.WithConnectionBufferSize(new NetTcpBinding(SecurityMode.None)), "net.tcp://127.0.0.1:9/cured");
        Open<IPlacementOnOperation>(SurrogateBindings.WithConnectionBufferSize(new NetTcpBinding(SecurityMode.None)), "net.tcp://127.0.0.1:9/cured");
        Assert.DoesNotContain(events.Warnings, w => w.Contains("/cured", StringComparison.Ordinal));
    }

    [Fact]
    public void The_warning_is_also_an_event_of_the_current_activity()
    {
        using var source = new ActivitySource("LoopbackBufferTests");
        using var listener = new ActivityListener
        {
            ShouldListenTo = s => s.Name == source.Name,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
        };
        ActivitySource.AddActivityListener(listener);
        using Activity activity = source.StartActivity("open")!;
        Open<IShop>(new NetTcpBinding(SecurityMode.None), "net.tcp://127.0.0.1:9/activity");
        ActivityEvent warning = Assert.Single(activity.Events, e => e.Name == SurrogateEventSource.SmallConnectionBufferActivityEvent);
        Assert.Equal(8192, warning.Tags.Single(t => t.Key == "connection_buffer_size").Value);
    }

    /// <summary>
    /// Compares the public readable properties of two objects by value, descending into settings objects (reader quotas,
    /// pool settings) and collections.
    /// </summary>
    private static void AssertSameProperties(object? expected, object? actual, string path)
    {
        if (expected is null || actual is null || expected.GetType().IsValueType || expected is string or Type or Uri or MessageVersion)
        {
            Assert.True(Equals(expected, actual), $"{path}: {expected} != {actual}");
            return;
        }

        Assert.Equal(expected.GetType(), actual.GetType());
        if (expected is System.Collections.IEnumerable expectedItems)
        {
            object[] left = [.. expectedItems.Cast<object>()], right = [.. ((System.Collections.IEnumerable)actual).Cast<object>()];
            Assert.Equal(left.Length, right.Length);
            for (int i = 0; i < left.Length; i++)
            {
                AssertSameProperties(left[i], right[i], $"{path}[{i}]");
            }

            return;
        }

        foreach (var property in expected.GetType().GetProperties(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Instance).Where(p => p.CanRead && p.GetIndexParameters().Length == 0))
        {
            AssertSameProperties(property.GetValue(expected), property.GetValue(actual), $"{path}.{property.Name}");
        }
    }

    private static void Open<TContract>(Binding binding, string address) => Open(typeof(TContract), binding, address);

    /// <summary>Opens (and aborts) a client factory of <paramref name="contract"/>: the behaviors apply, nothing connects.</summary>
    private static void Open(Type contract, Binding binding, string address)
    {
        var factory = (ChannelFactory)Activator.CreateInstance(typeof(ChannelFactory<>).MakeGenericType(contract), binding, new EndpointAddress(address))!;
        try
        {
            factory.Open();
        }
        finally
        {
            factory.Abort();
        }
    }

    /// <summary>The warnings of the DataSetSurrogate EventSource, formatted, while it lives.</summary>
    private sealed class WarningListener : EventListener
    {
        private readonly List<string> _warnings = [];

        public IReadOnlyList<string> Warnings
        {
            get
            {
                lock (_warnings)
                {
                    return [.. _warnings];
                }
            }
        }

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == SurrogateTelemetry.Name)
            {
                EnableEvents(eventSource, EventLevel.Warning);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData)
        {
            if (eventData.EventId == SurrogateEventSource.SmallConnectionBufferOnLoopbackId && eventData.Level == EventLevel.Warning)
            {
                lock (_warnings)
                {
                    _warnings.Add(string.Format(System.Globalization.CultureInfo.InvariantCulture, eventData.Message!, [.. eventData.Payload!]));
                }
            }
        }
    }
}

/// <summary>The attribute on the contract and again on an operation: still one warning per endpoint.</summary>
[ServiceContract]
[DataSetSurrogate]
public interface IOnContractAndOperation
{
    [OperationContract]
    [DataSetSurrogate]
    Task<System.Data.DataSet> EchoAsync(System.Data.DataSet value);
}
