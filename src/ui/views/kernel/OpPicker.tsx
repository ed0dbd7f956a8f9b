// Which op: every op the registry lists, with its summary.
import { For } from 'solid-js';
import { OPS } from '../../../core/ops/registry';
import type { KernelForm } from './kernel-form';

export function OpPicker(props: { form: KernelForm }) {
  return (
    <div class="field">
      <label for="op-select">op</label>
      <select id="op-select" data-testid="op-select" value={props.form.op().name} onChange={(e) => props.form.selectOp(e.currentTarget.value)}>
        <For each={OPS}>{(op) => <option value={op.name}>{op.name}</option>}</For>
      </select>
      <span class="hint" data-testid="op-summary">
        {props.form.op().summary}
      </span>
    </div>
  );
}
