/** docs/product-spec.md §8: the checkout's message, with the payment helper's reason (the server's message, 'Server error: 502', ...) beneath it. */
export function PaymentError({ reason }: { reason: string | null }) {
  return (
    <div className="form-error" role="alert">
      <p className="payment-error">There was an error processing your payment. Please try again.</p>
      {reason && (
        <p className="payment-error-reason small" data-testid="payment-error-reason">
          {reason}
        </p>
      )}
    </div>
  );
}
