//! The dashboard shell with its bottom navigation.
import { NavLink, Outlet } from 'react-router';

const TABS = [
  { to: '/dashboard/home', label: 'Home' },
  { to: '/dashboard/my-files', label: 'My Files' },
  { to: '/dashboard/organization-captures', label: 'Organization' },
  { to: '/dashboard/settings', label: 'Settings' },
];

export function DashboardLayout() {
  return (
    <div className="dashboard">
      <div className="dashboard__content">
        <Outlet />
      </div>
      <nav className="bottom-nav" aria-label="Main">
        {TABS.map((tab) => (
          <NavLink key={tab.to} to={tab.to} className={({ isActive }) => `bottom-nav__item${isActive ? ' bottom-nav__item--active' : ''}`}>
            {tab.label}
          </NavLink>
        ))}
      </nav>
    </div>
  );
}
