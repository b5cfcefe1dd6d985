import type { FormMessages } from '../../schema/FormMessages'
import { Button } from '../ui/Button'

/** The form's submit button: reads "Sending..." and is disabled while the message is on its way. */
export function SubmitButton({ messages, sending }: { messages: FormMessages; sending: boolean }) {
  return (
    <Button type="submit" size="lg" disabled={sending} aria-disabled={sending || undefined} className="w-full sm:w-auto">
      {sending ? messages.sending : messages.submit}
    </Button>
  )
}
