import { type PageData, dataHook } from '../../../lib/pageData.server'

export type Data = PageData<'contact-error'>

export const data = dataHook('contact-error')
