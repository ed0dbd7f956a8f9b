// WGSL with line numbers (not part of the copied text), lines a compile error names marked.
import { For } from 'solid-js';

export function WgslBlock(props: { wgsl: string; markedLines?: readonly number[] }) {
  const lines = () => props.wgsl.replace(/\n$/, '').split('\n');
  const marked = () => new Set(props.markedLines ?? []);
  return (
    <pre class="wgsl" data-testid="wgsl">
      <code>
        <For each={lines()}>
          {(line, i) => (
            <span class="line" classList={{ marked: marked().has(i() + 1) }} data-n={i() + 1}>
              {line || ' '}
            </span>
          )}
        </For>
      </code>
    </pre>
  );
}

/** Line numbers a WgslCompileError message names ("error at line 12:5: …"). */
export function compileErrorLines(message: string): number[] {
  return [...message.matchAll(/at line (\d+):\d+/g)].map((m) => Number(m[1]));
}
