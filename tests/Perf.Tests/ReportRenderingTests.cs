using System.Diagnostics;

namespace Surrogate.Perf.Tests;

/// <summary>report.html opens in headless Chromium, its charts draw (the page titles itself "rendered"), and the screenshot is not blank.</summary>
[Collection(HarnessRunCollection.Name)]
public sealed class ReportRenderingTests
{
    private readonly HarnessRunFixture run;

    public ReportRenderingTests(HarnessRunFixture run) => this.run = run;

    [Fact]
    public void Report_charts_draw_in_headless_chromium()
    {
        string dom = Chromium("--dump-dom", ToUri(run.PathOf("report.html")));
        Assert.Contains("<title>rendered</title>", dom);
        Assert.Equal(4, CountOf(dom, "<canvas"));
    }

    [Fact]
    public void Report_screenshot_is_not_blank()
    {
        string png = Path.Combine(run.OutputFolder, "report-screenshot.png");
        Chromium("--screenshot=" + png, "--window-size=1280,2000", ToUri(run.PathOf("report.html")));
        Assert.True(File.Exists(png), "no screenshot written");
        var image = PngImage.Read(png);
        Assert.Equal(1280, image.Width);
        Assert.True(image.DistinctColors() > 50, $"only {image.DistinctColors()} colours: the page looks blank");
        Assert.True(image.NonWhiteFraction() > 0.05, $"only {image.NonWhiteFraction():P1} of the page is not white");
    }

    internal static string Chromium(params string[] args)
    {
        string browser = new[] { "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome" }.FirstOrDefault(File.Exists)
            ?? throw new InvalidOperationException("Chromium is not installed: apt-get install -y chromium");
        string profile = Directory.CreateTempSubdirectory("perf-tests-chromium-").FullName;
        try
        {
            var info = new ProcessStartInfo(browser) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (string flag in new[]
            {
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
            }.Concat(args))
            {
                info.ArgumentList.Add(flag);
            }

            using var process = Process.Start(info)!;
            var stderr = process.StandardError.ReadToEndAsync();
            string stdout = process.StandardOutput.ReadToEnd();
            Assert.True(process.WaitForExit(TimeSpan.FromMinutes(2)), "chromium did not finish");
            Assert.True(process.ExitCode == 0, "chromium failed: " + stderr.Result);
            return stdout;
        }
        finally
        {
            Directory.Delete(profile, recursive: true);
        }
    }

    internal static string ToUri(string path) => new Uri(path).AbsoluteUri;

    private static int CountOf(string text, string part)
    {
        int count = 0;
        for (int at = text.IndexOf(part, StringComparison.Ordinal); at >= 0; at = text.IndexOf(part, at + 1, StringComparison.Ordinal))
        {
            count++;
        }

        return count;
    }
}
