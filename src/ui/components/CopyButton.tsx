// Copies a text to the clipboard and says so; where the Clipboard API is refused (an insecure
// origin, a denied permission) it falls back to selecting the text for a manual copy.
import { createSignal } from 'solid-js';

/** Writes the clipboard; false where the browser refuses it (the caller offers the text to select). */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyButton(props: { text: string; selectOnFail?: () => HTMLElement | undefined; testid?: string; label?: string }) {
  const [state, setState] = createSignal<'idle' | 'copied' | 'select'>('idle');
  const copy = async () => {
    if (await writeClipboard(props.text)) setState('copied');
    else {
      const el = props.selectOnFail?.();
      if (el) window.getSelection()?.selectAllChildren(el);
      setState('select');
    }
    setTimeout(() => setState('idle'), 2500);
  };
  return (
    <button type="button" class="small" data-testid={props.testid ?? 'copy-button'} onClick={() => void copy()}>
      {state() === 'copied' ? 'Copied' : state() === 'select' ? 'Selected: press Ctrl/⌘+C' : (props.label ?? 'Copy')}
    </button>
  );
}
