using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace Surrogate.ServiceModel.Tests;

/// <summary>Listens to the DataSetSurrogate meter and activity source for the lifetime of one test.</summary>
public sealed class TelemetryRecorder : IDisposable
{
    private readonly MeterListener _meters = new();
    private readonly ActivityListener _activities;
    private readonly ConcurrentQueue<(string Instrument, double Value, Dictionary<string, object?> Tags)> _measurements = new();
    private readonly ConcurrentQueue<Activity> _stopped = new();

    public TelemetryRecorder()
    {
        _meters.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == SurrogateTelemetry.Name)
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _meters.SetMeasurementEventCallback<long>((i, v, tags, _) => Add(i, v, tags));
        _meters.SetMeasurementEventCallback<double>((i, v, tags, _) => Add(i, v, tags));
        _meters.Start();
        _activities = new ActivityListener
        {
            ShouldListenTo = source => source.Name == SurrogateTelemetry.Name,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = _stopped.Enqueue,
        };
        ActivitySource.AddActivityListener(_activities);
    }

    public IReadOnlyCollection<Activity> Activities => _stopped;

    public int Count(string instrument, string operation, string? direction, string? format) =>
        Matching(instrument, operation, direction, format).Count();

    public double Sum(string instrument, string operation, string? direction, string format) =>
        Matching(instrument, operation, direction, format).Sum(m => m.Value);

    public void Dispose()
    {
        _meters.Dispose();
        _activities.Dispose();
    }

    private IEnumerable<(string Instrument, double Value, Dictionary<string, object?> Tags)> Matching(
        string instrument, string operation, string? direction, string? format) =>
        _measurements.Where(m => m.Instrument == instrument
            && Equals(m.Tags.GetValueOrDefault(SurrogateTelemetry.OperationTag), operation)
            && (direction is null || Equals(m.Tags.GetValueOrDefault(SurrogateTelemetry.DirectionTag), direction))
            && (format is null || Equals(m.Tags.GetValueOrDefault(SurrogateTelemetry.FormatTag), format)));

    private void Add(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var copy = new Dictionary<string, object?>();
        foreach (KeyValuePair<string, object?> tag in tags)
        {
            copy[tag.Key] = tag.Value;
        }

        _measurements.Enqueue((instrument.Name, value, copy));
    }
}
