using System.Runtime.Serialization;

namespace Surrogate.Perf.Scenarios;

/// <summary>
/// The order of "Compressing messages in WCF" (Dustin Metzger, 2011, parts 3 and 4): a data contract with these
/// members in this order. The compression tests and benchmarks send arrays of them.
/// </summary>
[DataContract(Namespace = MetzgerOrders.Namespace)]
public sealed class Order
{
    [DataMember(Order = 0)] public int CustomerID { get; set; }

    [DataMember(Order = 1)] public string? ShippingAddress1 { get; set; }

    [DataMember(Order = 2)] public string? ShippingAddress2 { get; set; }

    [DataMember(Order = 3)] public string? ShippingCity { get; set; }

    [DataMember(Order = 4)] public string? ShippingState { get; set; }

    [DataMember(Order = 5)] public string? ShippingZip { get; set; }

    [DataMember(Order = 6)] public string? ShippingCountry { get; set; }

    [DataMember(Order = 7)] public string? ShipType { get; set; }

    [DataMember(Order = 8)] public string? CreditCardType { get; set; }

    [DataMember(Order = 9)] public string? CreditCardNumber { get; set; }

    [DataMember(Order = 10)] public DateTime CreditCardExpiration { get; set; }

    [DataMember(Order = 11)] public string? CreditCardName { get; set; }

    [DataMember(Order = 12)] public OrderLine[]? OrderItems { get; set; }
}

/// <summary>One line of an <see cref="Order"/>.</summary>
[DataContract(Namespace = MetzgerOrders.Namespace)]
public sealed class OrderLine
{
    [DataMember(Order = 0)] public int ItemID { get; set; }

    [DataMember(Order = 1)] public int Quantity { get; set; }
}

/// <summary>
/// The 1,000 orders the service holds, generated once from a fixed seed (as the 2011 benchmark did, so that object
/// creation is not measured): a request for n orders gets the first n.
/// </summary>
public static class MetzgerOrders
{
    public const string Namespace = "urn:surrogate:orders";

    /// <summary>How many orders the service holds.</summary>
    public const int Count = 1_000;

    private static readonly Lazy<Order[]> Catalog = new(() => Create(Count, seed: 2011));

    /// <summary>The first <paramref name="count"/> (at most <see cref="Count"/>) of the shared orders; the array is new, the orders are shared.</summary>
    public static Order[] Take(int count) => Catalog.Value[..Math.Clamp(count, 0, Count)];

    /// <summary><paramref name="count"/> orders from <paramref name="seed"/>, 1–8 lines each; the same seed gives the same orders.</summary>
    public static Order[] Create(int count, int seed)
    {
        string[] shipTypes = ["Ground", "Two-Day", "Overnight", "Freight"];
        string[] cardTypes = ["Visa", "MasterCard", "American Express", "Discover"];
        var random = new Random(seed);
        var orders = new Order[count];
        for (int i = 0; i < count; i++)
        {
            var (city, state, zipPrefix) = TextSource.Pick(random, TextSource.Cities);
            var lines = new OrderLine[random.Next(1, 9)];
            for (int l = 0; l < lines.Length; l++)
            {
                lines[l] = new OrderLine { ItemID = random.Next(10_000, 99_999), Quantity = random.Next(100) < 70 ? 1 : random.Next(2, 25) };
            }

            orders[i] = new Order
            {
                CustomerID = random.Next(1, 50_000),
                ShippingAddress1 = $"{random.Next(1, 9_999)} {TextSource.Pick(random, TextSource.Streets)}",
                ShippingAddress2 = random.Next(100) < 30 ? $"Apt {random.Next(1, 400)}" : string.Empty,
                ShippingCity = city,
                ShippingState = state,
                ShippingZip = zipPrefix + TextSource.Digits(random, 2),
                ShippingCountry = "USA",
                ShipType = TextSource.Pick(random, shipTypes),
                CreditCardType = TextSource.Pick(random, cardTypes),
                CreditCardNumber = TextSource.Digits(random, 16),
                CreditCardExpiration = new DateTime(2026 + random.Next(0, 6), random.Next(1, 13), 1, 0, 0, 0, DateTimeKind.Utc),
                CreditCardName = $"{TextSource.Pick(random, TextSource.FirstNames)} {TextSource.Pick(random, TextSource.LastNames)}",
                OrderItems = lines,
            };
        }

        return orders;
    }
}
