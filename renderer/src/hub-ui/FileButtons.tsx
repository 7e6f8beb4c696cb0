/**
 * Buttons for the files the hub makes of what a tab shows (the KEP's CSV and PDF, the order list's, the books'
 * exports): each asks the hub for its file and saves it, so how a file is fetched, saved and refused is said once.
 */
import { isHubFile } from '../../../shared/hub/client.ts';
import { download } from './api.ts';

/**
 * A button for each kind of file: `get` asks the hub for it, the browser saves it under the hub's name for it (else
 * `name`), and a refusal goes to `fail`. The buttons stand in their parent's row or group.
 */
export function FileButtons<K extends string>(props: {
  kinds: readonly K[];
  label: (kind: K) => string;
  get: (kind: K) => Promise<unknown>;
  name: (kind: K) => string;
  fail: (err: unknown) => void;
}) {
  const save = (kind: K): void => {
    props
      .get(kind)
      .then((f) => isHubFile(f) && download(f, props.name(kind)))
      .catch(props.fail);
  };
  return (
    <>
      {props.kinds.map((kind) => (
        <button key={kind} type="button" onClick={() => save(kind)}>
          {props.label(kind)}
        </button>
      ))}
    </>
  );
}
