import { ArticlePage, type ArticlePageProps } from '../components/ArticlePage'
import { Frame } from '../components/Frame'

/** An article page in the frame, composed in React so that Astro renders it as one component. */
export default function FramedArticle(props: ArticlePageProps) {
  return (
    <Frame site={props.site}>
      <ArticlePage {...props} />
    </Frame>
  )
}
