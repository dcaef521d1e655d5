import { formatNumber } from '../format';

/**
 * A table cell holding a number: right-aligned, formatted for reading, the raw value in
 * `data-value` for tests and scripts. `text` overrides the formatting (a signed amount);
 * null shows a dash.
 */
export function NumCell(props: { value: number | null; text?: string }) {
  const { value } = props;
  return (
    <td class="num" data-value={value ?? undefined}>
      {value === null ? '—' : (props.text ?? formatNumber(value))}
    </td>
  );
}
