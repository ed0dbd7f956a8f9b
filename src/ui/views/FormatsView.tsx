// Formats: one op over many weight formats — each checked against the oracle of its dequantized
// weights, then timed — fastest first, with the quantization error beside the time, and the
// accuracy/speed frontier. The same run as `npm run lab -- formats` (LabApi.formats).
import { RunPanel } from '../components/RunPanel';
import { FormatsOptions } from './formats/FormatsOptions';
import { FormatsResultView } from './formats/FormatsResultView';
import { formatsState } from './formats/formats-state';
import type { ViewProps } from './view-props';

export function FormatsView(props: ViewProps) {
  const { form, action } = formatsState(() => props.adapter);
  return (
    <div class="formats-view" data-testid="formats-view">
      <RunPanel
        name="formats"
        title="Formats: the fastest precision per op, with its error"
        runLabel="Run formats"
        errorTitle="The formats run could not run"
        form={form}
        action={action}
        options={<FormatsOptions form={form} />}
        result={(r) => <FormatsResultView result={r} />}
      />
    </div>
  );
}
