import { createContext, useContext } from 'react';

/**
 * Opens the Admin Dashboard (the review of pending events and possible duplicates), which the app
 * shell holds; null outside it (a page rendered on its own, in a test).
 */
export const OpenAdminDashboardContext = createContext<(() => void) | null>(null);

export const useOpenAdminDashboard = () => useContext(OpenAdminDashboardContext);
