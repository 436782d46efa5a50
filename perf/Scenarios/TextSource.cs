namespace Surrogate.Perf.Scenarios;

/// <summary>Seeded pseudo-realistic text: words, names, addresses and card-like digit strings.</summary>
internal static class TextSource
{
    private static readonly string[] WordList =
    [
        "alpha", "bracket", "cable", "delta", "engine", "filter", "gasket", "hinge", "insulator", "joint",
        "kettle", "lever", "module", "nozzle", "outlet", "panel", "quartz", "relay", "sensor", "turbine",
        "valve", "washer", "yoke", "zinc", "steel", "copper", "plastic", "large", "small", "blue", "red",
        "industrial", "replacement", "standard", "premium", "compact", "heavy", "duty", "assembly", "kit",
    ];

    internal static readonly string[] FirstNames =
    [
        "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
        "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Chen", "Aisha",
        "Mateo", "Sofia", "Yuki", "Olga", "Pierre", "Ingrid", "Ravi", "Fatima", "Lars", "Amara",
    ];

    internal static readonly string[] LastNames =
    [
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
    ];

    internal static readonly string[] Streets =
    [
        "Main St", "Oak Ave", "Maple Dr", "Cedar Ln", "Pine St", "Elm St", "Washington Blvd", "Lake Rd",
        "Hill St", "Park Ave", "Sunset Blvd", "River Rd", "Church St", "Highland Ave", "Mill Rd", "Forest Dr",
    ];

    internal static readonly (string City, string State, string ZipPrefix)[] Cities =
    [
        ("Seattle", "WA", "981"), ("Portland", "OR", "972"), ("San Francisco", "CA", "941"), ("Austin", "TX", "787"),
        ("Denver", "CO", "802"), ("Chicago", "IL", "606"), ("Boston", "MA", "021"), ("New York", "NY", "100"),
        ("Atlanta", "GA", "303"), ("Miami", "FL", "331"), ("Phoenix", "AZ", "850"), ("Minneapolis", "MN", "554"),
        ("Nashville", "TN", "372"), ("Columbus", "OH", "432"), ("Raleigh", "NC", "276"), ("Salt Lake City", "UT", "841"),
    ];

    internal static string Words(Random random, int min, int max)
    {
        int count = random.Next(min, max + 1);
        var words = new string[count];
        for (int i = 0; i < count; i++)
        {
            words[i] = WordList[random.Next(WordList.Length)];
        }

        return string.Join(' ', words);
    }

    internal static string Digits(Random random, int length)
    {
        Span<char> digits = stackalloc char[length];
        for (int i = 0; i < length; i++)
        {
            digits[i] = (char)('0' + random.Next(10));
        }

        return new string(digits);
    }

    internal static T Pick<T>(Random random, T[] values) => values[random.Next(values.Length)];
}
