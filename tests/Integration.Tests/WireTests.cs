using System.Net.Http;
using System.Net.Sockets;
using System.Text;
using Xunit;

namespace Surrogate.Integration.Tests;

/// <summary>Byte-level checks of what the host answers to input no WCF client would send.</summary>
public sealed class WireTests(HostFixture fixture) : IClassFixture<HostFixture>
{
    [Fact]
    public async Task Preamble_for_an_unknown_via_gets_an_EndpointNotFound_fault_record()
    {
        using var client = new TcpClient();
        await client.ConnectAsync("127.0.0.1", fixture.Host.NetTcpPort);
        NetworkStream stream = client.GetStream();
        byte[] via = Encoding.UTF8.GetBytes($"net.tcp://127.0.0.1:{fixture.Host.NetTcpPort}/missing");
        byte[] preamble = [0x00, 0x01, 0x00, 0x01, 0x02, 0x02, (byte)via.Length, .. via, 0x03, 0x08, 0x0C];
        await stream.WriteAsync(preamble);

        byte[] answer = await ReadToEndAsync(stream);
        Assert.Equal(0x08, answer[0]);
        string fault = Encoding.UTF8.GetString(answer, 2, answer[1]);
        Assert.Equal("http://schemas.microsoft.com/ws/2006/05/framing/faults/EndpointNotFound", fault);
    }

    [Fact]
    public async Task Garbage_instead_of_a_preamble_closes_the_connection_at_once()
    {
        using var client = new TcpClient();
        await client.ConnectAsync("127.0.0.1", fixture.Host.NetTcpPort);
        NetworkStream stream = client.GetStream();
        await stream.WriteAsync("GET / HTTP/1.1\r\n\r\n"u8.ToArray());
        byte[] answer = await ReadToEndAsync(stream);
        Assert.Empty(answer);
    }

    [Fact]
    public async Task Http_body_that_is_not_an_envelope_gets_400()
    {
        using var http = new HttpClient();
        using var content = new StringContent("<not-soap", Encoding.UTF8, "text/xml");
        using HttpResponseMessage response = await http.PostAsync(fixture.Host.GetEndpointAddress("/text"), content);
        Assert.Equal(System.Net.HttpStatusCode.BadRequest, response.StatusCode);
    }

    private static async Task<byte[]> ReadToEndAsync(NetworkStream stream)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        using var collected = new MemoryStream();
        byte[] buffer = new byte[1024];
        try
        {
            int read;
            while ((read = await stream.ReadAsync(buffer, timeout.Token)) > 0)
            {
                collected.Write(buffer, 0, read);
            }
        }
        catch (IOException)
        {
            // A reset after the answer still ends the answer.
        }

        Assert.False(timeout.IsCancellationRequested, "The host kept the connection open.");
        return collected.ToArray();
    }
}
