//! /payment-methods/add: the add-card dialog, open by default (spec §2).
import { AddCardDialog } from '../components/AddCardDialog';

export function AddPaymentMethodPage() {
  return <AddCardDialog />;
}
