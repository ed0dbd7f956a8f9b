// The sweep's proposal, last: registry rules in schedulesFor's vocabulary to review and paste
// (the sweep writes nothing), or why there is none.
import { proposalText } from '../../../core/report/sweep-text';
import type { SweepRecord } from '../../../core/schema/results';
import { CopyButton } from '../../components/CopyButton';

export function ProposalBlock(props: { result: SweepRecord }) {
  let pre: HTMLPreElement | undefined;
  const text = () => proposalText(props.result);
  return (
    <section class="panel" data-testid="sweep-proposal">
      <h2>
        Proposal
        <span class="muted">{props.result.proposal.length ? `${props.result.proposal.length} rule${props.result.proposal.length === 1 ? '' : 's'}` : 'none'}</span>
        <CopyButton text={text()} selectOnFail={() => pre} testid="proposal-copy" />
      </h2>
      <pre class="proposal" ref={pre} data-testid="proposal-text">
        {text()}
      </pre>
    </section>
  );
}
