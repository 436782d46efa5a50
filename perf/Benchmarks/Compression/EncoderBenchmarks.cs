using System.ServiceModel.Channels;
using System.Xml;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Surrogate.Compression;
using Surrogate.Compression.Framing;
using Surrogate.Compression.ServiceModel;

namespace Surrogate.Perf.Benchmarks.Compression;

/// <summary>
/// One call through a pair of binary session encoders as the harness's 16 KB cells make it, without sockets: the
/// caller writes a small request (below the size floor), the service reads it and writes a 16 KB reply, the caller
/// reads the reply and its body. What the adaptive encoder costs per call beside a fixed one that sends the same
/// bytes: raw replies (in process the round trips the adaptive policy times say the link is fast, so it sends raw;
/// the setup checks that it does) against the fixed policy below its floor, with and without the decision log the
/// harness gives it, and the binary encoders with no frame around them (what the raw frame costs); and LZ4 replies
/// read by an adaptive caller against a fixed one.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class EncoderBenchmarks
{
    private const string Raw = "RawReplies";
    private const string Lz4 = "Lz4Replies";
    private const string Action = "urn:bench/Orders/GetOrders";
    private const string ReplyAction = Action + "Response";

    private readonly string _reply = BenchText.Orders(16 * 1024);
    private readonly BufferManager _buffers = BufferManager.CreateBufferManager(1 << 24, 1 << 22);
    private Pair _binary = null!;
    private Pair _fixedRaw = null!;
    private Pair _adaptive = null!;
    private Pair _adaptiveLogged = null!;
    private Pair _fixedLz4 = null!;
    private Pair _adaptiveCaller = null!;

    [GlobalSetup]
    public void Setup()
    {
        var lz4 = CompressionOptions.Default with { Codec = CompressionCodec.Lz4 };
        var adaptive = CompressionOptions.Adaptive;
        _binary = new Pair(null, null);
        _fixedRaw = new Pair(lz4 with { MinMessageSize = int.MaxValue }, lz4 with { MinMessageSize = int.MaxValue });
        _adaptive = new Pair(adaptive, adaptive);
        _adaptiveLogged = new Pair(adaptive, adaptive with { DecisionLog = new CompressionDecisionLog(1 << 18) });
        _fixedLz4 = new Pair(lz4, lz4);
        _adaptiveCaller = new Pair(adaptive, lz4);
        foreach (Pair pair in new[] { _adaptive, _adaptiveLogged })
        {
            for (int i = 0; i < 1000; i++)
            {
                Call(pair);
            }

            if (ReplyCodec(pair) is { } codec)
            {
                throw new InvalidOperationException($"The adaptive service sends {codec} in process, not raw: the raw comparison does not hold.");
            }
        }
    }

    [Benchmark, BenchmarkCategory(Raw)]
    public int Binary_alone() => Call(_binary);

    [Benchmark(Baseline = true), BenchmarkCategory(Raw)]
    public int Fixed_below_floor() => Call(_fixedRaw);

    [Benchmark, BenchmarkCategory(Raw)]
    public int Adaptive() => Call(_adaptive);

    [Benchmark, BenchmarkCategory(Raw)]
    public int Adaptive_with_decision_log() => Call(_adaptiveLogged);

    [Benchmark(Baseline = true), BenchmarkCategory(Lz4)]
    public int Fixed_lz4() => Call(_fixedLz4);

    [Benchmark, BenchmarkCategory(Lz4)]
    public int Adaptive_caller_of_fixed_lz4() => Call(_adaptiveCaller);

    private int Call(Pair pair)
    {
        Message request = Message.CreateMessage(MessageVersion.Soap12WSAddressing10, Action, 42);
        Message read = pair.Service.ReadMessage(pair.Client.WriteMessage(request, int.MaxValue, _buffers), _buffers);
        read.Close();
        Message received = pair.Client.ReadMessage(pair.Service.WriteMessage(Reply(), int.MaxValue, _buffers), _buffers);
        int length = received.GetBody<string>().Length;
        received.Close();
        return length;
    }

    private Message Reply() => Message.CreateMessage(MessageVersion.Soap12WSAddressing10, ReplyAction, _reply);

    private CompressionCodec? ReplyCodec(Pair pair)
    {
        ArraySegment<byte> frame = pair.Service.WriteMessage(Reply(), int.MaxValue, _buffers);
        CompressionCodec? codec = CompressedFrame.ReadHeader(frame);
        pair.Client.ReadMessage(frame, _buffers).Close();
        return codec;
    }

    /// <summary>A caller's and a service's binary session encoder, each wrapped with its options (null: not wrapped).</summary>
    private sealed class Pair(CompressionOptions? caller, CompressionOptions? service)
    {
        public MessageEncoder Client { get; } = Encoder(caller);

        public MessageEncoder Service { get; } = Encoder(service);

        private static MessageEncoder Encoder(CompressionOptions? options)
        {
            var inner = new BinaryMessageEncodingBindingElement { ReaderQuotas = XmlDictionaryReaderQuotas.Max };
            MessageEncodingBindingElement element = options is null ? inner : new CompressingEncodingBindingElement(inner, CompressionSettings.From(options, int.MaxValue));
            return element.CreateMessageEncoderFactory().CreateSessionEncoder();
        }
    }
}
