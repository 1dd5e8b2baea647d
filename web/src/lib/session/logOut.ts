//! Logging out on this device: the session is forgotten and the API cache emptied, so nothing of
//! the last user stays on screen.
import { api } from '../api/api';
import type { AppDispatch } from '../store/hooks';
import { loggedOut } from './loginInfoSlice';

export function logOut(dispatch: AppDispatch) {
  dispatch(loggedOut());
  dispatch(api.util.resetApiState());
}
