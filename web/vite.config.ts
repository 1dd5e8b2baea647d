/// <reference types="vitest/config" />
// Vite, the PWA (Workbox) and Vitest. `/api` is never served from a cache: no runtime caching
// of it, and navigations to it are not answered by the app shell.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icons/apple-touch-icon.png'],
      manifest: {
        name: 'Evidentia',
        short_name: 'Evidentia',
        description: 'Capture, store and share evidence.',
        theme_color: '#1b3a5c',
        background_color: '#ffffff',
        display: 'standalone',
        orientation: 'portrait',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,png,svg,ico,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        runtimeCaching: [
          {
            // The offline places list (8 MB, past the precache limit): fetched on the first address
            // search, then served from the cache, offline too. Hashed names: a new build adds one.
            urlPattern: ({ url }) => url.pathname.startsWith('/assets/city-') && url.pathname.endsWith('.json'),
            handler: 'CacheFirst',
            options: { cacheName: 'evidentia-places', expiration: { maxEntries: 2 } },
          },
        ],
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  test: {
    environment: 'jsdom',
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
