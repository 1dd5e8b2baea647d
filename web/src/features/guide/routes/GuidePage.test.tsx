// The guide covers capture, offline upload, storage dates, rentals and the integrity check.
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GuidePage } from './GuidePage';

describe('guide', () => {
  it('has a topic for each part of the product, linked from its table of contents', () => {
    render(
      <MemoryRouter>
        <GuidePage />
      </MemoryRouter>,
    );
    const topics = [
      'Capturing evidence',
      'Capturing offline and uploading later',
      'Storage dates and expiry',
      'Rental captures',
      'What the integrity check means',
    ];
    const toc = screen.getByRole('navigation', { name: 'Guide topics' });
    for (const title of topics) {
      const region = screen.getByRole('region', { name: title });
      expect(within(toc).getByRole('link', { name: title })).toHaveAttribute('href', `#${region.id}`);
    }
    expect(screen.getByRole('region', { name: 'What the integrity check means' })).toHaveTextContent('SHA-256');
    expect(screen.getByRole('region', { name: 'Storage dates and expiry' })).toHaveTextContent('Please extend your Storage Date for this file.');
    expect(within(screen.getByRole('region', { name: 'Rental captures' })).getByRole('link', { name: 'Vehicle Rental' })).toHaveAttribute(
      'href',
      '/vehicle-rental',
    );
  });
});
