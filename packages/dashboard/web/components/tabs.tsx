import { useId, useRef } from 'preact/hooks';

interface Props {
  label: string;
  tabs: readonly string[];
  selected: number;
  onSelect: (index: number) => void;
  /** The active tab's content, shown in the one tabpanel. */
  children: preact.ComponentChildren;
}

/** WAI-ARIA tabs: roving tabindex, Left/Right/Home/End move and activate. */
export function Tabs({ label, tabs, selected, onSelect, children }: Props) {
  const base = useId();
  const listRef = useRef<HTMLDivElement>(null);

  const move = (index: number) => {
    const next = (index + tabs.length) % tabs.length;
    onSelect(next);
    listRef.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const keys: Record<string, number> = {
      ArrowRight: selected + 1,
      ArrowLeft: selected - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = keys[event.key];
    if (target === undefined) return;
    event.preventDefault();
    move(target);
  };

  return (
    <div class="tabs">
      <div role="tablist" aria-label={label} ref={listRef} onKeyDown={onKeyDown}>
        {tabs.map((tab, i) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`${base}-tab-${i}`}
            aria-selected={i === selected}
            aria-controls={`${base}-panel`}
            tabIndex={i === selected ? 0 : -1}
            onClick={() => onSelect(i)}
          >
            {tab}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${selected}`} class="tabpanel">
        {children}
      </div>
    </div>
  );
}
