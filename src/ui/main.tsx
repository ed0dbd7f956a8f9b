// The page's entry: styles, then the app into #root.
import { render } from 'solid-js/web';
import { App } from './App';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
render(() => <App />, root);
