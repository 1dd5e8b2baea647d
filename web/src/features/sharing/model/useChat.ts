//! A share's conversation as the screen holds it: the messages read so far (by their number in the
//! thread), what the user is sending, and a poll every 30 seconds while the chat is on screen
//! (spec §9's poll interval), again when the window comes back into focus, and after each send.
//! Each read asks only for what came after the last number it has; a send carries its own client
//! id, so retrying a failed send never doubles the message.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { alreadyReported, firstErrorMessage } from '../../../lib/api/errors';
import { sharingApi, usePostChatMessageMutation } from '../api/sharingApi';
import type { ChatMessage } from '../api/types';

export const CHAT_POLL_MS = 30_000;
export const MAX_MESSAGE = 2000;
export const SEND_FAILED = 'Check your connection and try again.';
export const LOAD_FAILED = 'The messages could not be loaded.';

/** The field message for a draft, or null when it can be sent. */
export function draftError(content: string): string | null {
  if (!content.trim()) return 'Write a message.';
  if ([...content].length > MAX_MESSAGE) return 'Maximum 2000 characters';
  return null;
}

export interface Outgoing {
  clientMessageId: string;
  content: string;
  state: 'sending' | 'failed';
  error?: string;
}

function newClientId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export function useChat(sharingId: string, token?: string) {
  const dispatch = useAppDispatch();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [outgoing, setOutgoing] = useState<Outgoing[]>([]);
  const [folderName, setFolderName] = useState<string | null>(null);
  const [readOnly, setReadOnly] = useState(false);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<unknown>(null);
  const lastSeq = useRef(0);
  const reading = useRef<Promise<void> | null>(null);
  const [post] = usePostChatMessageMutation();

  const merge = useCallback((found: ChatMessage[]) => {
    if (!found.length) return;
    setMessages((known) => {
      const bySeq = new Map(known.map((m) => [m.seq, m]));
      for (const m of found) bySeq.set(m.seq, m);
      return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    });
  }, []);

  const read = useCallback(async () => {
    // Reads never overlap: a second caller waits for the one under way and then reads again.
    while (reading.current) await reading.current;
    const run = (async () => {
      try {
        for (let page = 0; page < 50; page++) {
          const result = await dispatch(sharingApi.endpoints.chat.initiate({ sharingId, after: lastSeq.current, token }, { subscribe: false, forceRefetch: true }));
          if (result.error || !result.data) {
            setLoadError(result.error ?? new Error(LOAD_FAILED));
            return;
          }
          const chat = result.data;
          setLoadError(null);
          setFolderName(chat.folderName);
          setReadOnly(chat.readOnly);
          merge(chat.messages);
          const newest = chat.messages.at(-1)?.seq ?? lastSeq.current;
          lastSeq.current = Math.max(lastSeq.current, newest);
          if (chat.messages.length === 0 || lastSeq.current >= chat.lastSeq) return;
        }
      } finally {
        setLoading(false);
      }
    })();
    reading.current = run;
    try {
      await run;
    } finally {
      reading.current = null;
    }
  }, [dispatch, sharingId, token, merge]);

  useEffect(() => {
    void read();
    const timer = window.setInterval(() => void read(), CHAT_POLL_MS);
    const onFocus = () => void read();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void read();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [read]);

  /** Sends `content`; a retry passes the failed message's client id. True once it is stored. */
  const send = useCallback(
    async (content: string, clientMessageId: string = newClientId()): Promise<boolean> => {
      setOutgoing((list) => [...list.filter((o) => o.clientMessageId !== clientMessageId), { clientMessageId, content, state: 'sending' }]);
      const result = await post({ sharingId, content, clientMessageId, token });
      if ('error' in result) {
        // A server failure is already on screen (the app's error snackbar): the row says only that
        // the message did not go.
        const error = alreadyReported(result.error) ? undefined : firstErrorMessage(result.error, SEND_FAILED);
        setOutgoing((list) => list.map((o) => (o.clientMessageId === clientMessageId ? { ...o, state: 'failed', error } : o)));
        return false;
      }
      // Shown where the thread put it once read: the messages before it may not be here yet.
      merge([result.data]);
      setOutgoing((list) => list.filter((o) => o.clientMessageId !== clientMessageId));
      void read();
      return true;
    },
    [post, sharingId, token, merge, read],
  );

  const discard = useCallback((clientMessageId: string) => setOutgoing((list) => list.filter((o) => o.clientMessageId !== clientMessageId)), []);

  return { messages, outgoing, folderName, readOnly, loading, loadError, send, discard, refresh: read };
}
