export { detectBlock } from './block-signals';
export { judgePage, type VerdictInput } from './page-verdict';
export {
  type BlockReason,
  type BlockSignal,
  PAGE_VERDICTS,
  type PageVerdict,
  type RawAnswer,
  type VerdictResult,
} from './verdict.types';
