import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  call,
  createOwnOrganization,
  createUser,
  signIn as apiSignIn,
} from '../../functions/test/support/api';
import '../../functions/test/support/provided';
import { launchBrowser, newTestPage, reload, screenshot, signIn } from './browser';

const stack = inject('stack');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const toast = (page: Page, text: string) => page.getByRole('status').getByText(text, { exact: true });

describe('editing the organization tree in the browser', () => {
  it('lets an admin create, rename and delete an organization, a building and a floor', async () => {
    // An admin of an organization of their own (an admin needs one to create more).
    const admin = await createUser(2, []);
    await createOwnOrganization(admin.userId, 2, 'Home Base');
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1280, height: 800 } });
    await signIn(page, stack.url, admin.email, admin.password);
    const sidebar = page.getByRole('navigation', { name: 'Organizations' });
    await sidebar.getByRole('button', { name: 'Home Base' }).waitFor();

    // Edit mode: the 'Edit Organization' menu item, with its tooltip.
    await page.getByRole('button', { name: 'Organization tree options' }).click();
    const item = page.getByRole('menuitem', { name: 'Edit Organization' });
    expect(await item.getAttribute('title')).toBe(
      'Enables you to add new Organizations,Buildings and floors to the platform as well as update and delete those',
    );
    await screenshot(page, 'tree-edit-menu');
    await item.click();
    await sidebar.getByRole('button', { name: 'Done' }).waitFor();

    // Create an organization: an empty name is refused with the documented message.
    await sidebar.getByRole('button', { name: 'Create Organization' }).click();
    const orgInput = sidebar.getByPlaceholder('Organization name');
    await orgInput.press('Enter');
    await sidebar.getByRole('alert').getByText('Organization name can not be empty.').waitFor();
    await screenshot(page, 'tree-edit-empty-name');
    await orgInput.fill('Browser Org');
    await orgInput.press('Enter');
    await toast(page, 'Organization has been created successfuly.').waitFor();
    const org = sidebar.getByRole('button', { name: 'Browser Org', exact: true });
    await org.waitFor();
    // The new organization's own entry (the admin's first organization is open too).
    const orgItem = sidebar
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Browser Org', exact: true }) });

    await orgItem.getByRole('button', { name: 'Create Building' }).click();
    const buildingInput = sidebar.getByPlaceholder('Add Building');
    await buildingInput.fill('Browser Tower');
    await buildingInput.press('Enter');
    await toast(page, 'New Building has been created successfuly').waitFor();
    // A building is named with what its count says.
    await sidebar.getByRole('button', { name: 'Browser Tower, 0 floors', exact: true }).waitFor();

    await sidebar.getByRole('button', { name: 'Create Floor' }).click();
    const floorInput = sidebar.getByPlaceholder('Add Floor');
    await floorInput.press('Enter');
    await sidebar.getByRole('alert').getByText('Floor name can not be empty.').waitFor();
    await floorInput.fill('Level 1');
    await floorInput.press('Enter');
    await toast(page, 'New Floor has been created successfuly').waitFor();
    await sidebar.getByRole('link', { name: 'Level 1', exact: true }).waitFor();
    await screenshot(page, 'tree-edit-created');

    // Rename each by double-click.
    await org.dblclick();
    const orgRename = sidebar.getByRole('textbox', { name: 'New name for Browser Org' });
    expect(await orgRename.inputValue()).toBe('Browser Org');
    await orgRename.fill('Browser Org Renamed');
    await orgRename.press('Enter');
    await sidebar.getByRole('button', { name: 'Browser Org Renamed', exact: true }).waitFor();

    await sidebar.getByRole('button', { name: 'Browser Tower, 1 floor', exact: true }).dblclick();
    const buildingRename = sidebar.getByPlaceholder('Building name');
    await buildingRename.fill('');
    await buildingRename.press('Enter');
    await sidebar.getByRole('alert').getByText('Building name can not be empty.').waitFor();
    await screenshot(page, 'tree-edit-rename');
    await buildingRename.fill('Browser Annex');
    await buildingRename.press('Enter');
    await sidebar.getByRole('button', { name: 'Browser Annex, 1 floor', exact: true }).waitFor();

    await sidebar.getByRole('link', { name: 'Level 1', exact: true }).dblclick();
    const floorRename = sidebar.getByRole('textbox', { name: 'New name for Level 1' });
    await floorRename.fill('Level One');
    await floorRename.press('Enter');
    await toast(page, 'Floor name updated').waitFor();
    const floorLink = sidebar.getByRole('link', { name: 'Level One', exact: true });
    await floorLink.waitFor();

    // The floor header rename (updateFloorPlan), on the opened floor.
    await floorLink.click();
    await page.waitForURL(/floor=/);
    await page.getByRole('heading', { name: 'Level One' }).waitFor();
    await page.getByRole('button', { name: 'Edit floor name' }).click();
    const headerInput = page.getByRole('main').getByRole('textbox', { name: 'Floor name' });
    // Emptied, it is refused with the floor-plan specification's text (no full stop there).
    await headerInput.fill('  ');
    await headerInput.press('Enter');
    await page
      .getByRole('main')
      .getByRole('alert')
      .getByText('Floor name can not be empty', { exact: true })
      .waitFor();
    await headerInput.fill('Level Uno');
    await headerInput.press('Enter');
    await page.getByRole('heading', { name: 'Level Uno' }).waitFor();
    await sidebar.getByRole('link', { name: 'Level Uno', exact: true }).waitFor();
    await screenshot(page, 'tree-edit-floor-header-renamed');

    // Delete the (selected) floor: the dialog, Cancel, then Delete; the selection is cleared.
    await sidebar.getByRole('button', { name: 'Delete Level Uno' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Level Uno?' });
    await dialog.waitFor();
    await dialog
      .getByText('Delete this Organization/Building/Floor permanently? This action cannot be undone.')
      .waitFor();
    await screenshot(page, 'tree-edit-delete-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await sidebar.getByRole('link', { name: 'Level Uno' }).count()).toBe(1);

    await sidebar.getByRole('button', { name: 'Delete Level Uno' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Item deleted successfully').waitFor();
    await page.waitForURL((url) => !url.search.includes('floor='));
    expect(await sidebar.getByRole('link', { name: 'Level Uno' }).count()).toBe(0);

    await sidebar.getByRole('button', { name: 'Delete Browser Annex' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Browser Annex?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await sidebar.getByRole('button', { name: /^Browser Annex, / }).waitFor({ state: 'detached' });

    await sidebar.getByRole('button', { name: 'Delete Browser Org Renamed' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Browser Org Renamed?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await sidebar
      .getByRole('button', { name: 'Browser Org Renamed', exact: true })
      .waitFor({ state: 'detached' });

    // Done leaves edit mode.
    await sidebar.getByRole('button', { name: 'Done' }).click();
    expect(await sidebar.getByRole('button', { name: 'Create Organization' }).count()).toBe(0);
    await screenshot(page, 'tree-edit-done');

    // Edits survive a reload (nothing was only local).
    await reload(page);
    await sidebar.getByRole('button', { name: 'Home Base' }).waitFor();
    expect(await sidebar.getByRole('button', { name: 'Browser Org Renamed', exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a read-only user no edit controls, and the server refuses their calls anyway', async () => {
    // An organization of its own, made by an admin, with a floor the viewer can open.
    const admin = await createUser(2, []);
    await createOwnOrganization(admin.userId, 2);
    const adminToken = (await apiSignIn(admin.email, admin.password)).accessToken;
    const created = await call<{ organization: { _id: string } }>(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgName: 'Viewer Org' },
      { token: adminToken },
    );
    expect(created.status).toBe(201);
    const orgID = created.body.organization._id;
    const building = await call<{ building: { _id: string } }>(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgID, buildName: 'Viewer Building' },
      { token: adminToken },
    );
    expect(building.status).toBe(201);
    const buildID = building.body.building._id;
    const floor = await call<{ floor: { _id: string } }>(
      '/api/dashboard/createOrUpdateFloor',
      { buildID, floorName: 'Viewer Floor' },
      { token: adminToken },
    );
    expect(floor.status).toBe(201);
    const floorID = floor.body.floor._id;

    for (const role of [0, 1] as const) {
      const viewer = await createUser(role, [orgID]);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await signIn(page, stack.url, viewer.email, viewer.password);
      const sidebar = page.getByRole('navigation', { name: 'Organizations' });
      await sidebar.getByRole('button', { name: 'Viewer Building' }).click();
      const floorLink = sidebar.getByRole('link', { name: 'Viewer Floor' });
      await floorLink.click();
      await page.getByRole('heading', { name: 'Viewer Floor' }).waitFor();
      await floorLink.dblclick();
      expect(await page.getByRole('button', { name: 'Organization tree options' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^(Create|Done|Delete)/ }).count()).toBe(0);
      expect(await page.getByRole('textbox').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Edit floor name' }).count()).toBe(0);
      await screenshot(page, `tree-edit-role-${role}`);

      const token = (await apiSignIn(viewer.email, viewer.password)).accessToken;
      for (const [path, body] of [
        ['/api/dashboard/createOrUpdateOrgBuild', { orgName: 'Sneaky' }],
        ['/api/dashboard/createOrUpdateOrgBuild', { orgID, buildName: 'Sneaky' }],
        ['/api/dashboard/createOrUpdateFloor', { buildID, floorName: 'Sneaky' }],
        ['/api/dashboard/updateOrgBuildFloorName', { id: floorID, value: 'Sneaky' }],
        ['/api/dashboard/updateFloorPlan', { orgID, floorID, updateFloorObj: { floorName: 'Sneaky' } }],
        ['/api/dashboard/deleteOrgBuildFloor', { id: orgID, type: 'organization' }],
      ] as const) {
        expect({ path, status: (await call(path, body, { token })).status }).toEqual({ path, status: 403 });
      }
      await context.close();
    }
  });
});
