import Link from 'next/link'

/** The "you may not see this" message: the /forbidden page and the (admin) layout's refusal. */
export function ForbiddenMessage({ homeHref = '/' }: { homeHref?: string }) {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <p className="text-sm font-semibold text-brand-700">403</p>
      <h1 className="mt-2">Forbidden</h1>
      <p className="mt-3 text-stone-600">
        You are not allowed to view this page: your account does not have the role it needs. If you need it, ask an
        administrator.
      </p>
      <p className="mt-6">
        <Link href={homeHref} className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
          Go to your home page
        </Link>
      </p>
    </div>
  )
}
