/** Async outcomes: `role="status"` for news, `role="alert"` for errors (both live regions). */
export function StatusLine({ message }: { message: string | null }) {
  return (
    <p class="status" role="status">
      {message ?? ''}
    </p>
  );
}

export function ErrorLine({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}
