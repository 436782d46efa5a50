using System.Globalization;

namespace Surrogate.Tests;

/// <summary>Runs code under a given current culture (and UI culture), whatever the machine's, and puts it back.</summary>
internal static class Cultures
{
    /// <summary>The cultures the codec is tested under: a dotted I (tr-TR), decimal commas (de-DE), invariant, and CJK.</summary>
    public static readonly string[] All = ["en-US", "tr-TR", "de-DE", "", "ja-JP"];

    public static T Under<T>(string name, Func<T> action)
    {
        var (culture, uiCulture) = (CultureInfo.CurrentCulture, CultureInfo.CurrentUICulture);
        CultureInfo.CurrentCulture = CultureInfo.CurrentUICulture = CultureInfo.GetCultureInfo(name);
        try
        {
            return action();
        }
        finally
        {
            (CultureInfo.CurrentCulture, CultureInfo.CurrentUICulture) = (culture, uiCulture);
        }
    }

    public static void Under(string name, Action action) => Under(name, () =>
    {
        action();
        return 0;
    });
}
