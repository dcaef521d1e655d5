import type { ComponentChildren } from 'preact';

/** A labelled figure: `data-value` carries the raw value for tests, the text the formatted one. */
export function Stat(props: {
  label: string;
  testId: string;
  value: string | number;
  children: ComponentChildren;
}) {
  return (
    <div class="stat">
      <dt>{props.label}</dt>
      <dd data-testid={props.testId} data-value={String(props.value)}>
        {props.children}
      </dd>
    </div>
  );
}
