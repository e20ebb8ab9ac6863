import { Link } from 'react-router-dom';
import { ShowcaseImage } from '../components/ui/showcase-image.js';
import { BeforeAfterSlider } from '../features/home/before-after-slider.js';
import { HERO, showcaseSrc } from '../lib/showcase.js';
import '../features/home/home.css';

/** Supported kinds only (issue 32): pictures of a kind Prodshot refuses would promise what it does not do. packages/imaging's `npm run showcase` makes the pictures it lists. */
const GALLERY = [
  { src: 'gallery-1', alt: 'Blue canvas plimsolls on a white marble surface' },
  { src: 'gallery-2', alt: 'Sunglasses in a clean studio setting' },
  { src: 'gallery-3', alt: 'White plimsolls on a light wood table' },
  { src: 'gallery-4', alt: 'Sneakers on a dark walnut table' },
  { src: 'gallery-5', alt: 'Canvas tote bag in a warm living room' },
  { src: 'gallery-6', alt: 'Dark sunglasses on draped champagne silk' },
  { src: 'gallery-7', alt: 'Canvas tote bag on a pastel gradient backdrop' },
  { src: 'gallery-8', alt: 'Running shoes in an industrial concrete setting' },
];

const COLLAGE = [
  { src: 'collage-1', alt: 'Running shoes on marble' },
  { src: 'collage-2', alt: 'Dark sunglasses on light wood' },
  { src: 'collage-3', alt: 'White plimsolls on a scrapbook backdrop' },
  { src: 'collage-4', alt: 'Blue plimsolls in a studio' },
  { src: 'collage-5', alt: 'Sunglasses on a pastel gradient' },
  { src: 'collage-6', alt: 'Sneakers on silk' },
];

const SUPPORTED = ['Footwear', 'Beauty', 'Accessories', 'Electronics', 'Furniture', 'Cosmetics'];
const COMING_SOON = ['Food', 'Kitchenware', 'Clothing', 'Models'];
const CHANNELS = [
  { name: 'Product listings', text: 'Clean, consistent photos that make every listing look like the same brand.' },
  { name: 'Instagram and TikTok', text: 'Scroll-stopping scenes sized for feeds, stories and short video covers.' },
  { name: 'Shopify and other online stores', text: 'Catalog images ready to drop into any storefront theme.' },
  { name: 'Email campaigns', text: 'Seasonal hero shots for newsletters without a new photoshoot.' },
  { name: 'Ad creatives', text: 'Test many backgrounds for the same product and keep the winner.' },
  { name: 'Landing pages', text: 'High-resolution visuals for launches and product pages.' },
];

/** The boxes of styles.css: four columns of the page, two on a phone; the collage's first picture spans two. */
const GALLERY_SIZES = '(max-width: 860px) 46vw, 18.5rem';
const COLLAGE_SIZES = '(max-width: 860px) 46vw, 25rem';
const COLLAGE_LEAD_SIZES = '(max-width: 860px) 92vw, 50rem';

export function HomePage() {
  return (
    <div className="home">
      <section className="hero">
        <div className="hero-copy">
          <p className="eyebrow">Product photography, without the studio</p>
          <h1>Turn Ordinary Product Shots into Extraordinary Visuals</h1>
          <p className="lead">
            Upload one product photo. Our AI analyses your product and builds a background that matches your brand, or
            pick a designer-made template, or describe a scene in plain English.
          </p>
          <div className="actions">
            <Link to="/sign-up" className="button button-large">
              Get Started
            </Link>
            <Link to="/pricing" className="button button-ghost button-large">
              See pricing
            </Link>
          </div>
        </div>
        <div className="hero-art">
          <ShowcaseImage
            name={HERO.name}
            sizes={HERO.sizes}
            alt="Blue plimsolls on marble, made by Prodshot"
            priority
          />
        </div>
      </section>

      <section className="section" aria-labelledby="gallery-title">
        <h2 id="gallery-title">Made with Prodshot</h2>
        <p className="section-lead">Every image below started as a plain product cutout.</p>
        <ul className="gallery">
          {GALLERY.map((image) => (
            <li key={image.src}>
              <ShowcaseImage name={image.src} sizes={GALLERY_SIZES} alt={image.alt} />
            </li>
          ))}
        </ul>
      </section>

      <section className="section split" aria-labelledby="ai-title">
        <div>
          <h2 id="ai-title">AI backgrounds that fit your brand</h2>
          <p>
            New backgrounds, background removal, style recommendations and prompt enhancement in one place. Smart
            generation studies your product and designs several styles at once; manual design lets you choose from nine
            templates or write your own scene.
          </p>
          <ul className="checklist">
            <li>Nine designer templates, from marble to pastel gradients</li>
            <li>Custom scenes from a plain-English prompt</li>
            <li>Automatic style recommendations for your product</li>
            <li>HD and ultra HD output</li>
          </ul>
        </div>
        <div className="kinds">
          <div>
            <h3>Supported products</h3>
            <ul className="tags">
              {SUPPORTED.map((kind) => (
                <li key={kind} className="tag">
                  {kind}
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3>Coming soon</h3>
            <ul className="tags">
              {COMING_SOON.map((kind) => (
                <li key={kind} className="tag tag-muted">
                  {kind}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section className="section split" aria-labelledby="compare-title">
        <div>
          <h2 id="compare-title">See the difference</h2>
          <p>
            Drag the divider, or focus it and use the arrow keys, to compare the original photo with the finished shot.
          </p>
        </div>
        <BeforeAfterSlider
          before={showcaseSrc('before')}
          after={showcaseSrc('after')}
          beforeAlt="Original photo of white plimsolls on a plain grey background"
          afterAlt="The same plimsolls on a marble surface, made by Prodshot"
        />
      </section>

      <section className="section" aria-labelledby="channels-title">
        <h2 id="channels-title">Ready for every channel</h2>
        <ul className="channels">
          {CHANNELS.map((channel) => (
            <li key={channel.name} className="card">
              <h3>{channel.name}</h3>
              <p className="muted">{channel.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="section" aria-labelledby="collage-title">
        <h2 id="collage-title">One product, endless scenes</h2>
        <ul className="collage">
          {COLLAGE.map((image, index) => (
            <li key={image.src}>
              <ShowcaseImage
                name={image.src}
                sizes={index === 0 ? COLLAGE_LEAD_SIZES : COLLAGE_SIZES}
                alt={image.alt}
              />
            </li>
          ))}
        </ul>
      </section>

      <section className="section cta">
        <h2>Your next product shoot takes a minute</h2>
        <p>Upload a photo and see your product in a studio scene.</p>
        <Link to="/sign-up" className="button button-large">
          Get Started
        </Link>
      </section>
    </div>
  );
}
