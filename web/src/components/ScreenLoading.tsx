//! What the content area shows while a screen's code loads (a lazy route's first visit): the
//! loading overlay's spinner, faded in after a moment so that a chunk served from the cache never
//! flashes it.
export function ScreenLoading() {
  return (
    <div className="screen-loading" role="progressbar" aria-label="Loading">
      <div className="app-loading__spinner" />
    </div>
  );
}
