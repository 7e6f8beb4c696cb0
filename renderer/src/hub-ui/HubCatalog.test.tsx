// @vitest-environment jsdom
/**
 * The hub's product form opened before the shop's tax labels arrived: the list shows the first label as chosen,
 * so the form takes it, and a bad price is the only thing said (it once also said the label was required).
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { translate } from '../../../shared/i18n/catalog.ts';
import { ProductForm } from './HubCatalog.tsx';
import { hubMessages, type HubKey } from './i18n.ts';
import { testRoot, typeInto } from '../testing/dom.ts';

const dom = testRoot();
const t = (key: HubKey, params?: Record<string, string | number>) => translate(hubMessages, 'sr-Cyrl', key, params);

function type(id: string, value: string): void {
  typeInto(dom.container.querySelector(`#${id}`) as HTMLInputElement, value);
}

describe('the hub’s new product form', () => {
  it('takes the first tax label when the labels arrive after it opened', () => {
    const form = (labels: readonly string[]) => (
      <ProductForm
        t={t}
        lang="sr-Cyrl"
        token="session"
        product={null}
        labels={labels}
        onDone={() => undefined}
        onClose={() => undefined}
      />
    );
    act(() => dom.root.render(form([])));
    act(() => dom.root.render(form(['Ђ', 'Е'])));
    expect((dom.container.querySelector('#hp-label') as HTMLSelectElement).value).toBe('Ђ');
    type('hp-code', '1001');
    type('hp-name', 'Млеко 1л');
    type('hp-price', 'abc');
    act(() => dom.container.querySelector('form')?.requestSubmit());
    const alerts = [...dom.container.querySelectorAll('[role="alert"]')].map((a) => a.id);
    expect(alerts).toEqual(['hp-price-error']);
  });
});
