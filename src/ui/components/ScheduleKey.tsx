// A schedule key, breakable after each knob so long keys wrap at commas in narrow cells; the
// break hints are not part of the copied text.
import { For } from 'solid-js';

export function ScheduleKey(props: { value: string }) {
  const parts = () => props.value.split(',');
  return (
    <For each={parts()}>
      {(part, i) => (
        <>
          {part}
          {i() < parts().length - 1 ? ',' : ''}
          {i() < parts().length - 1 ? <wbr /> : null}
        </>
      )}
    </For>
  );
}
