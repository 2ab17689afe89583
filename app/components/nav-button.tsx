import { Button } from 'antd';
import type { ComponentProps, MouseEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router';

type NavButtonProps = { to: string; children: ReactNode } & Omit<ComponentProps<typeof Button>, 'href' | 'onClick' | 'children'>;

/** An antd Button that is a real link (works without JavaScript) and navigates client-side. */
export function NavButton({ to, children, ...rest }: NavButtonProps) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <Button {...rest} href={to} onClick={onClick}>
      {children}
    </Button>
  );
}
