namespace Surrogate.AsmxCompare;

/// <summary>The service answered with a SOAP fault; <see cref="Exception.Message"/> is its faultstring.</summary>
public sealed class AsmxFaultException : Exception
{
    public AsmxFaultException()
    {
    }

    public AsmxFaultException(string message) : base(message)
    {
    }

    public AsmxFaultException(string message, Exception innerException) : base(message, innerException)
    {
    }
}
