import type { Metadata } from "next";
import { AccountView } from "@/components/account/account-view";

export const metadata: Metadata = { title: "Account" };

const AccountPage = () => <AccountView />;

export default AccountPage;
