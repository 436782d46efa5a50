using System.Reflection;
using System.Runtime.ExceptionServices;
using System.ServiceModel.Description;

namespace Surrogate.StandInHost.Dispatch;

/// <summary>Calls one contract method on the service instance: sync or Task-returning, with out/ref parameters.</summary>
internal sealed class OperationMethodInvoker
{
    private readonly MethodInfo method;
    private readonly ParameterKind[] kinds;
    private readonly int outputCount;
    private readonly PropertyInfo? taskResult;

    public OperationMethodInvoker(OperationDescription operation)
    {
        method = operation.TaskMethod ?? operation.SyncMethod
            ?? throw new NotSupportedException($"Operation '{operation.Name}' has neither a sync nor a Task-returning method.");
        ParameterInfo[] parameters = method.GetParameters();
        kinds = new ParameterKind[parameters.Length];
        for (int i = 0; i < parameters.Length; i++)
        {
            ParameterInfo p = parameters[i];
            kinds[i] = !p.ParameterType.IsByRef ? ParameterKind.In : p.IsOut ? ParameterKind.Out : ParameterKind.Ref;
            if (kinds[i] != ParameterKind.In)
            {
                outputCount++;
            }
        }

        if (method.ReturnType.IsGenericType && method.ReturnType.GetGenericTypeDefinition() == typeof(Task<>))
        {
            taskResult = method.ReturnType.GetProperty(nameof(Task<int>.Result));
        }
    }

    /// <summary>
    /// Invokes the method with <paramref name="inputs"/> (in and ref parameters in declaration order) and returns
    /// the result and the out/ref values in declaration order.
    /// </summary>
    public async Task<(object? Result, object?[] Outputs)> InvokeAsync(object instance, object?[] inputs)
    {
        var arguments = new object?[kinds.Length];
        int input = 0;
        for (int i = 0; i < kinds.Length; i++)
        {
            if (kinds[i] != ParameterKind.Out)
            {
                arguments[i] = inputs[input++];
            }
        }

        object? returned;
        try
        {
            returned = method.Invoke(instance, arguments);
        }
        catch (TargetInvocationException e) when (e.InnerException is not null)
        {
            ExceptionDispatchInfo.Capture(e.InnerException).Throw();
            throw;
        }

        object? result = returned;
        if (returned is Task task)
        {
            await task.ConfigureAwait(false);
            result = taskResult?.GetValue(task);
        }

        var outputs = new object?[outputCount];
        int output = 0;
        for (int i = 0; i < kinds.Length; i++)
        {
            if (kinds[i] != ParameterKind.In)
            {
                outputs[output++] = arguments[i];
            }
        }

        return (result, outputs);
    }

    private enum ParameterKind
    {
        In,
        Out,
        Ref,
    }
}
