using System.Buffers.Binary;
using System.IO.Compression;

namespace Surrogate.Perf.Tests;

/// <summary>Just enough PNG decoding (8-bit RGB/RGBA, non-interlaced, as Chromium writes) to tell a drawn page from a blank one.</summary>
public sealed class PngImage
{
    private readonly byte[] pixels;
    private readonly int channels;

    private PngImage(int width, int height, int channels, byte[] pixels)
    {
        Width = width;
        Height = height;
        this.channels = channels;
        this.pixels = pixels;
    }

    public int Width { get; }

    public int Height { get; }

    public static PngImage Read(string path)
    {
        byte[] file = File.ReadAllBytes(path);
        if (file.Length < 8 || file[1] != 'P' || file[2] != 'N' || file[3] != 'G')
        {
            throw new InvalidDataException("not a PNG");
        }

        int width = 0, height = 0, channels = 0;
        using var idat = new MemoryStream();
        for (int at = 8; at + 8 <= file.Length;)
        {
            int length = BinaryPrimitives.ReadInt32BigEndian(file.AsSpan(at));
            string type = System.Text.Encoding.ASCII.GetString(file, at + 4, 4);
            var data = file.AsSpan(at + 8, length);
            if (type == "IHDR")
            {
                width = BinaryPrimitives.ReadInt32BigEndian(data);
                height = BinaryPrimitives.ReadInt32BigEndian(data[4..]);
                if (data[8] != 8 || data[12] != 0 || (data[9] != 2 && data[9] != 6))
                {
                    throw new InvalidDataException("only 8-bit, non-interlaced RGB/RGBA is supported");
                }

                channels = data[9] == 6 ? 4 : 3;
            }
            else if (type == "IDAT")
            {
                idat.Write(data);
            }

            at += 12 + length;
        }

        idat.Position = 0;
        using var inflated = new MemoryStream();
        using (var zlib = new ZLibStream(idat, CompressionMode.Decompress))
        {
            zlib.CopyTo(inflated);
        }

        return new PngImage(width, height, channels, Unfilter(inflated.ToArray(), width, height, channels));
    }

    public int DistinctColors()
    {
        var colours = new HashSet<int>();
        for (int i = 0; i < pixels.Length; i += channels)
        {
            colours.Add(pixels[i] << 16 | pixels[i + 1] << 8 | pixels[i + 2]);
        }

        return colours.Count;
    }

    public double NonWhiteFraction()
    {
        long nonWhite = 0;
        for (int i = 0; i < pixels.Length; i += channels)
        {
            if (pixels[i] < 250 || pixels[i + 1] < 250 || pixels[i + 2] < 250)
            {
                nonWhite++;
            }
        }

        return nonWhite / (double)(Width * (long)Height);
    }

    private static byte[] Unfilter(byte[] raw, int width, int height, int bpp)
    {
        int stride = width * bpp;
        byte[] output = new byte[stride * height];
        for (int y = 0; y < height; y++)
        {
            int filter = raw[y * (stride + 1)];
            int src = y * (stride + 1) + 1;
            int dst = y * stride;
            for (int x = 0; x < stride; x++)
            {
                int a = x >= bpp ? output[dst + x - bpp] : 0;
                int b = y > 0 ? output[dst + x - stride] : 0;
                int c = x >= bpp && y > 0 ? output[dst + x - stride - bpp] : 0;
                int value = raw[src + x];
                output[dst + x] = (byte)(filter switch
                {
                    0 => value,
                    1 => value + a,
                    2 => value + b,
                    3 => value + ((a + b) >> 1),
                    4 => value + Paeth(a, b, c),
                    _ => throw new InvalidDataException($"bad filter {filter}"),
                });
            }
        }

        return output;
    }

    private static int Paeth(int a, int b, int c)
    {
        int p = a + b - c;
        int pa = Math.Abs(p - a), pb = Math.Abs(p - b), pc = Math.Abs(p - c);
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
}
