/** A refusal under the input it concerns, as an alert the input points at with aria-describedby (`id`). */
export function FieldError({ id, text }: { id: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <p id={id} class="notice notice-error field-error" role="alert">
      {text}
    </p>
  );
}
