import { diffWords } from 'diff';

/** Word diff of two snapshots as text spans (`<ins>` added, `<del>` removed); nothing is parsed. */
export function TextDiff({ before, after }: { before: string; after: string }) {
  const parts = diffWords(before, after);
  return (
    <pre class="diff" data-testid="change-diff">
      {parts.map((part, i) => {
        // The parts never move, so their index is a stable key.
        if (part.added) return <ins key={i}>{part.value}</ins>;
        if (part.removed) return <del key={i}>{part.value}</del>;
        return <span key={i}>{part.value}</span>;
      })}
    </pre>
  );
}
