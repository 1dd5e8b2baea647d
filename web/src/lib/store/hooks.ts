//! The typed hooks and dispatch of the one store, for every component and hook below it: they live
//! here rather than in `src/app` so that features, components and lib never import the app.
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { RootState } from './rootReducer';

export type { RootState } from './rootReducer';
export type AppDispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
