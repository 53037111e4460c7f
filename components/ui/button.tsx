import type { ButtonHTMLAttributes } from "react";
import { cn } from "./cn";

const VARIANTS = {
  primary: "bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover disabled:opacity-50",
  secondary: "bg-card text-foreground ring-1 ring-inset ring-input hover:bg-muted disabled:opacity-50",
  ghost: "text-foreground hover:bg-muted disabled:opacity-50",
  danger: "bg-destructive-solid text-white shadow-sm hover:bg-destructive-solid-hover disabled:opacity-50",
} as const;

const SIZES = { sm: "h-8 px-2.5 text-xs", md: "h-9 px-3.5 text-sm", lg: "h-10 px-4 text-sm" } as const;

export type ButtonVariant = keyof typeof VARIANTS;

export const buttonClass = ({
  variant = "primary",
  size = "md",
  className,
}: { variant?: ButtonVariant; size?: keyof typeof SIZES; className?: string } = {}) =>
  cn(
    "inline-flex items-center justify-center gap-1.5 rounded-md font-medium whitespace-nowrap transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed",
    VARIANTS[variant],
    SIZES[size],
    className,
  );

export const Button = ({
  variant,
  size,
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: keyof typeof SIZES }) => (
  <button type={type} className={buttonClass({ variant, size, className })} {...props} />
);
