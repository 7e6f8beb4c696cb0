/**
 * A hub screen's read of what it shows: asked again whenever what it depends on changes, its answer (or refusal)
 * taken only while the screen still stands and no newer read has started, so a late answer never overwrites a
 * newer one or reaches a screen that has gone.
 */
import { useEffect, type DependencyList } from 'react';

/**
 * Reads with `read` when `deps` change: `use` takes the answer, `fail` a refusal, each only while this read is the
 * screen's latest.
 */
export function useHubRead<T>(
  read: () => Promise<T>,
  use: (answer: T) => void,
  fail: (err: unknown) => void,
  deps: DependencyList,
): void {
  useEffect(() => {
    let alive = true;
    read()
      .then((answer) => alive && use(answer))
      .catch((err: unknown) => alive && fail(err));
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller names what `read`, `use` and `fail` read
  }, deps);
}
