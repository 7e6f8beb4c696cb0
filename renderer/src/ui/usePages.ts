/**
 * A list the screens read in pages (the catalog's products, at the till and at the hub): the first page whenever
 * what it depends on changes, the next ones appended on asking. An answer a newer read overtook (the search typed
 * on) is dropped, so the list never shows an older query's products.
 */
import { useEffect, useRef, useState, type DependencyList } from 'react';

/** A page of products and the key of the next one (null at the end). */
interface ProductsPage {
  readonly next: string | null;
  readonly products: readonly unknown[];
}

/**
 * The pages of a list: `read` answers the page after `after` (the first one without it), null when there is
 * nothing to show; it is read again when `deps` change, and a refusal of that read goes to `fail`. `shown` is all
 * read so far, `more` reads the next page.
 */
export function usePages<P extends ProductsPage>(
  read: (after?: string) => Promise<P | null>,
  deps: DependencyList,
  fail: (err: unknown) => void = () => undefined,
) {
  const [page, setPage] = useState<P | null>(null);
  const [shown, setShown] = useState<P['products'][number][]>([]);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    read()
      .then((p) => {
        if (mine !== seq.current || p === null) return;
        setPage(p);
        setShown([...p.products]);
      })
      .catch(fail);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller names what `read` reads
  }, deps);
  const more = () => {
    if (!page?.next) return;
    const mine = ++seq.current;
    void read(page.next).then((p) => {
      if (mine !== seq.current || p === null) return;
      setPage(p);
      setShown((s) => [...s, ...p.products]);
    });
  };
  return { page, shown, more };
}
