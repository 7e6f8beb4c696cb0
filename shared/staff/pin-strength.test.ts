import { describe, expect, it } from 'vitest';
import { DEFAULT_MANAGER_PIN, managerPinProblem } from './pin-strength.ts';

describe("a manager's PIN strength", () => {
  it('refuses one digit repeated, runs up and down, and the first-run PIN', () => {
    for (const pin of ['0000', '1111', '777777', '1234', '4321', '123456', '654321', '3456789', '98765432'])
      expect(managerPinProblem(pin), pin).toEqual({ key: 'pin_trivial' });
    expect(managerPinProblem(DEFAULT_MANAGER_PIN)).toEqual({ key: 'pin_trivial' });
  });
  it('takes PINs that are not trivial', () => {
    for (const pin of ['4827', '7890', '135790', '112233', '483920', '12345670'])
      expect(managerPinProblem(pin), pin).toBeNull();
  });
});
