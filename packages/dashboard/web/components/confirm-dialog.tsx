import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { inertOutside } from '../inert-outside';

interface Props {
  title: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  children?: ComponentChildren;
}

/**
 * A modal confirmation: the page behind is inert, focus moves to the safe choice, Tab stays inside,
 * Escape cancels, and the element that opened it gets focus back on close.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  busy,
  children,
}: Props) {
  const titleId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const onCancelRef = useRef(onCancel);
  onCancelRef.current = onCancel;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const backdrop = boxRef.current?.parentElement;
    const restore = backdrop ? inertOutside(backdrop) : () => {};
    cancelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onCancelRef.current();
      } else if (event.key === 'Tab' && boxRef.current) {
        const focusable = boxRef.current.querySelectorAll<HTMLElement>(
          'button:not([disabled]), input:not([disabled])',
        );
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (!first || !last) return;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      restore();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <div class="backdrop">
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={boxRef}>
        <h2 id={titleId}>{title}</h2>
        {children}
        <div class="actions">
          <button type="button" class="danger" onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
          <button type="button" ref={cancelRef} onClick={onCancel}>
            {cancelLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
