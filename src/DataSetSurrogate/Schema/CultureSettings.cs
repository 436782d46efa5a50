using System.ComponentModel;
using System.Data;
using System.Globalization;

namespace Surrogate.Schema;

/// <summary>
/// A DataSet's and a table's locale and case sensitivity, and whether each was set or is a default: a DataSet's
/// locale defaults to the culture current when the DataSet was made; a table's locale and case sensitivity follow its
/// DataSet's until set. DataSet keeps "was set" in private flags that only the component model's ShouldSerialize hooks
/// expose; there is no public setter that leaves them clear, so a reader rebuilds a default by making the object
/// where the default is the value the payload names.
/// </summary>
internal static class CultureSettings
{
    private static readonly PropertyDescriptor DataSetLocale = TypeDescriptor.GetProperties(typeof(DataSet))[nameof(DataSet.Locale)]!;
    private static readonly PropertyDescriptor TableLocale = TypeDescriptor.GetProperties(typeof(DataTable))[nameof(DataTable.Locale)]!;
    private static readonly PropertyDescriptor TableCaseSensitive = TypeDescriptor.GetProperties(typeof(DataTable))[nameof(DataTable.CaseSensitive)]!;

    public static bool IsLocaleSet(DataSet dataSet) => DataSetLocale.ShouldSerializeValue(dataSet);

    public static bool IsLocaleSet(DataTable table) => TableLocale.ShouldSerializeValue(table);

    public static bool IsCaseSensitiveSet(DataTable table) => TableCaseSensitive.ShouldSerializeValue(table);

    /// <summary>Runs <paramref name="create"/> with <paramref name="culture"/> as the current culture, so what it makes takes it as its default locale.</summary>
    public static T CreateUnder<T>(CultureInfo culture, Func<T> create)
    {
        var current = CultureInfo.CurrentCulture;
        if (string.Equals(current.Name, culture.Name, StringComparison.Ordinal))
        {
            return create();
        }

        CultureInfo.CurrentCulture = culture;
        try
        {
            return create();
        }
        finally
        {
            CultureInfo.CurrentCulture = current;
        }
    }

    /// <summary>
    /// Gives a table outside any DataSet the locale and case sensitivity it would inherit from a DataSet holding them,
    /// leaving both unset, as a table taken out of such a DataSet has them.
    /// </summary>
    public static void Inherit(DataTable table, CultureInfo locale, bool caseSensitive)
    {
        var name = table.TableName;
        var holder = new DataSet { Locale = locale };
        holder.Tables.Add(table);
        // Adding a table whose locale changes skips inheriting case sensitivity; setting it on the DataSet hands it on.
        holder.CaseSensitive = !caseSensitive;
        holder.CaseSensitive = caseSensitive;
        holder.Tables.Remove(table);
        table.TableName = name;
    }

    /// <summary>The locale and case sensitivity the payload gives a table it creates inside a DataSet.</summary>
    public static void Apply(DataTable table, TableModel model, DataSet dataSet)
    {
        if (model.CaseSensitive is bool caseSensitive && (model.CaseSensitiveSet ?? caseSensitive != dataSet.CaseSensitive))
        {
            table.CaseSensitive = caseSensitive;
        }
        else if (model.CaseSensitive is bool inherited && table.CaseSensitive != inherited)
        {
            // Said to be inherited but not the DataSet's: the value wins (only a payload at odds with itself gets here).
            table.CaseSensitive = inherited;
        }

        if (model.Locale is string locale && (model.LocaleSet ?? !string.Equals(locale, dataSet.Locale.Name, StringComparison.Ordinal)))
        {
            table.Locale = Culture(locale);
        }
        else if (model.Locale is string inherited && !string.Equals(table.Locale.Name, inherited, StringComparison.Ordinal))
        {
            table.Locale = Culture(inherited);
        }
    }

    /// <summary>The locale and case sensitivity the payload gives a table it fills outside any DataSet.</summary>
    public static void ApplyStandalone(DataTable table, TableModel model, HeaderModel? header)
    {
        var caseSensitive = model.CaseSensitive ?? header?.CaseSensitive;
        var locale = model.Locale ?? header?.Locale;
        if (model.CaseSensitiveSet is bool caseSensitiveSet && model.LocaleSet is bool localeSet && caseSensitive is bool cs && locale is not null)
        {
            if ((!caseSensitiveSet && table.CaseSensitive != cs) || (!localeSet && !string.Equals(table.Locale.Name, locale, StringComparison.Ordinal)))
            {
                Inherit(table, Culture(locale), cs);
            }

            if (caseSensitiveSet)
            {
                table.CaseSensitive = cs;
            }

            if (localeSet)
            {
                table.Locale = Culture(locale);
            }

            return;
        }

        // Writers before the flags: set only what differs from the table's default (setting marks a value explicit).
        if (caseSensitive is bool value && table.CaseSensitive != value)
        {
            table.CaseSensitive = value;
        }

        if (locale is not null && !string.Equals(table.Locale.Name, locale, StringComparison.Ordinal))
        {
            table.Locale = Culture(locale);
        }
    }

    public static CultureInfo Culture(string name)
    {
        try
        {
            return CultureInfo.GetCultureInfo(name);
        }
        catch (CultureNotFoundException ex)
        {
            throw new DataSetSurrogateException($"The payload names an unknown locale '{name}'.", ex);
        }
    }
}
