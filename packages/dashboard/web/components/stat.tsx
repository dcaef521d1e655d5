/**
 * A labelled figure. The test-id element holds exactly the formatted value (and `data-value` the raw
 * one) so tests can compare it whole; units and context go in `note`, outside it.
 */
export function Stat(props: {
  label: string;
  testId: string;
  value: string | number;
  text: string;
  note?: string;
}) {
  return (
    <div class="stat">
      <dt>{props.label}</dt>
      <dd>
        <span data-testid={props.testId} data-value={String(props.value)}>
          {props.text}
        </span>
        {props.note ? <span class="note"> {props.note}</span> : null}
      </dd>
    </div>
  );
}
