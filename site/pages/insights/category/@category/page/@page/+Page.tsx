// The second and later pages of a category's articles: the same page as the first.
export { default } from '../../+Page'
