import { useTranslation } from 'react-i18next';
import { formatRsd } from '../../../shared/money.ts';
import { usePos } from '../context.ts';
import type { Approval } from '../store/index.ts';
import { Modal } from './Modal.tsx';
import { PinPad, usePinAttempt } from './PinPad.tsx';

/** Asks for a manager's PIN before a sensitive counter action; the core checks it (and audits it). */
export function ApprovalDialog(props: { approval: Approval }) {
  const { t } = useTranslation();
  const approve = usePos((s) => s.approve);
  const close = usePos((s) => s.openDialog);
  const line = usePos((s) => ('index' in props.approval ? s.lines[props.approval.index] : undefined));
  const { pin, setPin, pad, attempt } = usePinAttempt();
  const a = props.approval;
  const what =
    a.kind === 'command'
      ? a.what
      : a.kind === 'training'
        ? t(a.on ? 'approval.trainingOn' : 'approval.trainingOff')
        : a.kind === 'clearCart'
          ? t('approval.clearCart')
          : a.kind === 'price'
            ? t('approval.price', {
                name: line?.name ?? '',
                from: formatRsd(line?.unitPricePara ?? 0),
                to: formatRsd(a.unitPricePara),
              })
            : a.kind === 'reduceQuantity'
              ? t('approval.reduceQuantity', { name: line?.name ?? '' })
              : t('approval.removeLine', { name: line?.name ?? '' });
  const submit = () =>
    attempt(
      pin,
      () => approve(pin),
      () => setPin(''),
      (message) => t('approval.refused', { message }),
    );
  return (
    <Modal title={t('approval.title')} onClose={() => close(null)}>
      <p>{what}</p>
      <PinPad
        {...pad}
        label={t('approval.pin')}
        onSubmit={() => void submit()}
        submitLabel={t('approval.submit')}
        onCancel={() => close(null)}
      />
    </Modal>
  );
}
